# A blueprint whose names forget the environment (eos catalog check refuses it; Load does not):
# deployed in two environments, both would own firewall and server proxy-clash.
service "clash" {
  description = "names its objects without the environment"

  terraform {
    module    = "terraform/local"
    variables = { name = service.name }
  }
}
