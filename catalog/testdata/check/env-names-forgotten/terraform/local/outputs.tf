output "ipv4_address" {
  value = eoslab_server.main.ipv4_address
}
