service "unknowndependency" {
  description = "a check fixture"

  requires "authentic" {
    because = "sign-in"
  }

  terraform {
    module = "terraform/local"
    variant "production" {
      module = "terraform/production"
    }
    variables = { name = "${service.name}-${env}" }
  }
}
