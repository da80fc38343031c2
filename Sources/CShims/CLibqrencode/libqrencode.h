// libqrencode as Debian installs it (libqrencode-dev, found by pkg-config as libqrencode).
#include <qrencode.h>
