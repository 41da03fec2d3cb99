variable "env" {
  type = string
}

job "nomadholdsdataunknown" {
  datacenters = ["dc1"]
  meta {
    env = var.env
  }

  group "app" {
    task "app" {
      driver = "raw_exec"
      config {
        command = "/bin/true"
      }
    }
  }
}
