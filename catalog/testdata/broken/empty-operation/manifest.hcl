operation "restart" "nothing" {
  description = "an operation with no layer part"

  arg "name" {
    type        = string
    description = "what to restart"
  }
}
