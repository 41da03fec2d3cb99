service "alpha" {
  description = "needs beta"

  requires "beta" {
    because = "alpha needs beta"
  }
}
