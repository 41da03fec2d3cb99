variable "name" {
  type = string
}

variable "domain" {
  type = string
}
