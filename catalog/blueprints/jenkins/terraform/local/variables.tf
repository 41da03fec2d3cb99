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

variable "volume_gb" {
  type        = number
  description = "Size of the workspace volume in GiB."

  validation {
    condition     = var.volume_gb > 0
    error_message = "The workspace volume needs a positive size."
  }
}
