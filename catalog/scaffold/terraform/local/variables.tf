variable "name" {
  type        = string
  description = "Name of the service; names every resource."
}

variable "env" {
  type        = string
  description = "Environment the service runs in (production, staging, local)."
}

variable "domain" {
  type        = string
  description = "Public DNS name of the service."
}

variable "volume_gb" {
  type        = number
  description = "Size of the data volume in GiB."

  validation {
    condition     = var.volume_gb >= 10
    error_message = "The data volume needs at least 10 GiB."
  }
}

variable "server_size" {
  type        = string
  default     = "small"
  description = "Size class of the server (small, medium, large, xlarge)."

  validation {
    condition     = contains(["small", "medium", "large", "xlarge"], var.server_size)
    error_message = "The server size must be small, medium, large or xlarge."
  }
}

variable "image" {
  type        = string
  default     = "debian-12"
  description = "Operating system image of the server."
}

variable "zone" {
  type        = string
  default     = ""
  description = "DNS zone the record is created in; empty means the domain's parent."
}
