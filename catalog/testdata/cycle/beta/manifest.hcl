service "beta" {
  description = "needs alpha"

  requires "alpha" {
    because = "beta needs alpha"
  }
}
