variable "env" {
  type = string
}

job "undeclared" {
  group "app" {
    task "app" {
      driver = "docker"

      config {
        image = "nginx:1.27"
      }
    }
  }
}
