{#- Jenkins host: a logical volume for its data, formatted and mounted, and the packages the
    Nomad docker driver needs. Every value comes from the pillar Eos renders from the
    blueprint; filters keep the YAML valid whatever the value holds. #}
{%- set lv_name = salt['pillar.get']('lv_name', 'data-jenkins') %}
{%- set lv_size = salt['pillar.get']('lv_size', '50G') %}
{%- set vg_name = salt['pillar.get']('vg_name', 'vg0') %}
{%- set fs_type = salt['pillar.get']('fs_type', 'xfs') %}
{%- set mount_point = salt['pillar.get']('mount_point', '/srv/jenkins') %}
{%- set device = '/dev/' ~ vg_name ~ '/' ~ lv_name %}

jenkins-packages:
  pkg.installed:
    - pkgs:
      - lvm2
      - xfsprogs
      - docker.io
      - git

jenkins-data-volume:
  lvm.lv_present:
    - name: {{ lv_name | yaml_dquote }}
    - vgname: {{ vg_name | yaml_dquote }}
    - size: {{ lv_size | yaml_dquote }}
    - require:
      - pkg: jenkins-packages

jenkins-data-filesystem:
  blockdev.formatted:
    - name: {{ device | yaml_dquote }}
    - fs_type: {{ fs_type | yaml_dquote }}
    - require:
      - lvm: jenkins-data-volume

jenkins-data-mount:
  mount.mounted:
    - name: {{ mount_point | yaml_dquote }}
    - device: {{ device | yaml_dquote }}
    - fstype: {{ fs_type | yaml_dquote }}
    - mkmnt: True
    - persist: True
    - opts:
      - defaults
      - noatime
    - require:
      - blockdev: jenkins-data-filesystem

jenkins-data-owner:
  file.directory:
    - name: {{ mount_point | yaml_dquote }}
    - user: 1000
    - group: 1000
    - mode: '0750'
    - require:
      - mount: jenkins-data-mount
