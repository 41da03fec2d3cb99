service "badtype" {
  description = "a flag with a type that does not exist"

  flag "quota" {
    type        = sizes
    description = "how much space"
  }
}
