output "server_name" {
  description = "Name of the server."
  value       = hcloud_server.main.name
}

output "ipv4_address" {
  description = "Public IPv4 address of the server."
  value       = hcloud_server.main.ipv4_address
}

output "dns_name" {
  description = "DNS name pointing at the server."
  value       = cloudflare_record.main.hostname
}
