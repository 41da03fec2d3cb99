service "envnamesforgotten" {
  description = "a check fixture: its firewall's name forgets the environment"

  terraform {
    module = "terraform/local"
    variant "production" {
      module = "terraform/production"
    }
    variables = { name = service.name, env = env }
  }
}
