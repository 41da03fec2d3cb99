service "typemismatch" {
  description = "a check fixture"

  flag "storage" {
    type        = size
    default     = "10G"
    description = "size of the data volume"
  }

  terraform {
    module = "terraform/local"
    variant "production" {
      module = "terraform/production"
    }
    variables = {
      name      = "${service.name}-${env}"
      volume_gb = flag.storage
    }
  }
}
