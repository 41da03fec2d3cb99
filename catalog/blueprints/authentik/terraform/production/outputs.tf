output "server_name" {
  description = "Name of the proxy server."
  value       = hcloud_server.main.name
}

output "ipv4_address" {
  description = "Public IPv4 address of the proxy server."
  value       = hcloud_server.main.ipv4_address
}

output "dns_name" {
  description = "DNS name pointing at the proxy server."
  value       = cloudflare_record.main.hostname
}

output "frontend_for" {
  description = "Service whose sign-in authentik fronts."
  value       = var.frontend_for
}
