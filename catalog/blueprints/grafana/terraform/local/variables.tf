variable "name" {
  type        = string
  description = "Name of the service; prefixes every resource."
}

variable "env" {
  type        = string
  description = "Environment the service runs in (production, staging, local)."
}

variable "server_size" {
  type        = string
  default     = "small"
  description = "Size class of the server (small, medium, large)."
}

variable "image" {
  type        = string
  default     = "debian-12"
  description = "Operating system image of the server."
}

variable "domain" {
  type        = string
  description = "Public DNS name of the service."
}

variable "zone" {
  type        = string
  default     = "local.test"
  description = "DNS zone the record is created in."
}
