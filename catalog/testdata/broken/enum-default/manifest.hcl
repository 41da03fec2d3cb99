service "enumdefault" {
  description = "an enum default outside its values"

  flag "tier" {
    type        = enum
    values      = ["small", "large"]
    default     = "medium"
    description = "size class"
  }
}
