# The lightest blueprint, for the drift scan benchmark: one built-in terraform_data resource,
# so Terraform needs no provider and what is measured is Eos's scan against Terraform's own
# cost. Not shipped in the binary.
service "light" {
  description = "one terraform_data resource"

  flag "size" {
    type        = string
    default     = "small"
    pattern     = "[a-z]+"
    description = "a value the resource keeps"
  }

  terraform {
    module = "terraform"
    variables = {
      name = service.name
      env  = env
      size = flag.size
    }
  }
}
