service "secretref" {
  description = "a template reading a secret flag"

  flag "admin-password" {
    type        = string
    secret      = true
    description = "administrator password"
  }

  requires "authentik" {
    when    = flag.admin-password != null
    because = "a password"
  }
}
