service "dupflag" {
  description = "the same flag twice"

  flag "domain" {
    type        = hostname
    description = "public name"
  }

  flag "domain" {
    type        = string
    description = "public name, again"
  }
}
