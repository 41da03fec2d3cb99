service "missingvariable" {
  description = "a check fixture"

  flag "domain" {
    type        = hostname
    default     = "app.local.test"
    description = "public name of the service"
  }

  terraform {
    module = "terraform/local"
    variant "production" {
      module = "terraform/production"
    }
    variables = {
      name   = "${service.name}-${env}"
      domain = flag.domain
    }
  }
}
