service "undeclaredprovider" {
  description = "a check fixture"

  terraform {
    module = "terraform/local"
    variant "production" {
      module = "terraform/production"
    }
    variables = { name = "${service.name}-${env}" }
  }
}
