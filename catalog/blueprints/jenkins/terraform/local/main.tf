# Built-in terraform_data resources stand in for cloud resources until the simulated-cloud
# provider replaces them; the resource names (server, volume, dns) stay the same.

resource "terraform_data" "server" {
  input = {
    name  = "proxy-${var.name}"
    size  = var.server_size
    image = var.image
    env   = var.env
  }
}

resource "terraform_data" "volume" {
  input = {
    name      = "data-${var.name}"
    size_gb   = var.volume_gb
    attach_to = terraform_data.server.output.name
  }
}
