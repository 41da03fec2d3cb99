variable "name" {
  type        = string
  description = "Name of the service."
}

variable "env" {
  type        = string
  description = "Environment the service runs in."
}

variable "size" {
  type        = string
  description = "A value the resource keeps."
}

resource "terraform_data" "main" {
  input = {
    name = var.name
    env  = var.env
    size = var.size
  }
}
