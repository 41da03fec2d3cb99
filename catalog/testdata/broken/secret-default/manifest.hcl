service "secretdefault" {
  description = "a secret flag with a default"

  flag "admin-password" {
    type        = string
    secret      = true
    default     = "hunter2"
    description = "administrator password"
  }
}
