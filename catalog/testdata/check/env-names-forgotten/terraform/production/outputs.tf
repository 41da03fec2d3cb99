output "ipv4_address" {
  value = hcloud_server.main.ipv4_address
}
