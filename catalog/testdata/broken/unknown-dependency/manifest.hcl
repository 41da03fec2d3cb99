service "unknowndep" {
  description = "a dependency on a service the catalog does not have"

  requires "authentic" {
    because = "always"
  }
}
