service "unknownattr" {
  description = "an attribute the schema does not have"

  flag "verbose" {
    type        = bool
    description = "say more"
    hidden      = true
  }
}
