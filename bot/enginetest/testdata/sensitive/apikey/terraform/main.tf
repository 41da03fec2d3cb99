variable "name" {
  type = string
}

variable "api_key" {
  type      = string
  sensitive = true
  default   = "s3cr3t-api-key-never-shown"
}

resource "terraform_data" "client" {
  input = {
    name = var.name
    key  = var.api_key
  }
}
