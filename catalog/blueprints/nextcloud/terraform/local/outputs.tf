output "server_name" {
  description = "Name of the proxy server."
  value       = terraform_data.server.output.name
}

output "volume_gb" {
  description = "Size of the data volume in GiB."
  value       = terraform_data.volume.output.size_gb
}

output "dns_name" {
  description = "DNS record pointing at the proxy server."
  value       = terraform_data.dns.output.name
}
