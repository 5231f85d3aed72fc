# apt_install PACKAGE...: installs Debian packages, as root here and through
# sudo on a machine where the scripts run as a user (a GitHub runner).
apt_install() {
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo -n)
    ("${sudo[@]}" apt-get update -qq && "${sudo[@]}" apt-get install -y -qq "$@") >/dev/null
}
