service "baddefault" {
  description = "a default that is not of the flag's type"

  flag "port" {
    type        = int
    default     = "http"
    description = "port to listen on"
  }
}
