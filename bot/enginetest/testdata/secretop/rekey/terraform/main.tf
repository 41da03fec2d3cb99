variable "name" {
  type = string
}

resource "terraform_data" "rekey" {
  input = var.name
}
