service "nodesc" {
  description = "a flag without a description"

  flag "verbose" {
    type = bool
  }
}
