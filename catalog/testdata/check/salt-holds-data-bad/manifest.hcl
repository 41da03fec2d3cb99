service "saltholdsdatabad" {
  description = "a check fixture"

  terraform {
    module = "terraform/local"
    variant "production" {
      module = "terraform/production"
    }
    variables = { name = "${service.name}-${env}" }
  }

  salt {
    state = "salt/app.sls"
    variant "production" {
      state      = "salt/app.sls"
      holds_data = ["srv/${service.name}"]
    }
    pillar = { name = "${service.name}-${env}" }
  }
}
