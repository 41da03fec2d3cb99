variable "name" {
  type = string
}

variable "volume_gb" {
  type = number
}
