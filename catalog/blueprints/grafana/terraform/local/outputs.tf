output "server_name" {
  description = "Name of the server."
  value       = terraform_data.server.output.name
}

output "dns_name" {
  description = "DNS record pointing at the server."
  value       = terraform_data.dns.output.name
}
