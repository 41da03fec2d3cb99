output "server_name" {
  description = "Name of the proxy server."
  value       = hcloud_server.main.name
}

output "ipv4_address" {
  description = "Public IPv4 address of the proxy server."
  value       = hcloud_server.main.ipv4_address
}

output "volume_gb" {
  description = "Size of the data volume in GiB."
  value       = hcloud_volume.data.size
}

output "dns_name" {
  description = "DNS name pointing at the proxy server."
  value       = cloudflare_record.main.hostname
}
