service "unknownref" {
  description = "an expression naming a flag that does not exist"

  flag "sso" {
    type        = bool
    description = "sign in through authentik"
  }

  requires "authentik" {
    when    = flag.ssl
    because = "--sso"
  }
}
