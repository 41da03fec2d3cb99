service "badflagname" {
  description = "a flag name with capitals"

  flag "adminPassword" {
    type        = string
    description = "camel case is not a flag"
  }
}
