// libmosquitto as Debian installs it (libmosquitto-dev, found by pkg-config as libmosquitto):
// the MQTT client of the link to a broker, with MQTT 5's properties.
#include <mosquitto.h>
#include <mqtt_protocol.h>
