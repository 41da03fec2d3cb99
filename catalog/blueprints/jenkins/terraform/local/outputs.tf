output "server_name" {
  description = "Name of the server."
  value       = terraform_data.server.output.name
}

output "volume_gb" {
  description = "Size of the workspace volume in GiB."
  value       = terraform_data.volume.output.size_gb
}
