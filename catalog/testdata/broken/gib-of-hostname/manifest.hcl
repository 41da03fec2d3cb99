service "gibhost" {
  description = "gib() of a hostname"

  flag "domain" {
    type        = hostname
    description = "public name"
  }

  requires "authentik" {
    flags   = { domain = gib(flag.domain) }
    because = "always"
  }
}
