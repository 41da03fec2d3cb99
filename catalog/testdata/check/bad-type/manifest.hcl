service "badtype" {
  description = "a check fixture"

  flag "storage" {
    type        = sizes
    description = "size of the data volume"
  }

  terraform {
    module = "terraform/local"
    variant "production" {
      module = "terraform/production"
    }
    variables = { name = "${service.name}-${env}" }
  }
}
