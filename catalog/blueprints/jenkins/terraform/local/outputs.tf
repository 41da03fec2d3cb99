output "server_name" {
  description = "Name of the proxy server."
  value       = eoslab_server.main.name
}

output "ipv4_address" {
  description = "Public IPv4 address of the proxy server."
  value       = eoslab_server.main.ipv4_address
}

output "volume_gb" {
  description = "Size of the workspace volume in GiB."
  value       = eoslab_volume.data.size_gb
}

output "dns_name" {
  description = "DNS name pointing at the proxy server."
  value       = eoslab_dns_record.main.fqdn
}
