/* cuzk's public version.  The public C API (engine, prove/verify, params)
 * grows here as the layers behind it land. */
#ifndef CUZK_VERSION_H
#define CUZK_VERSION_H

#define CUZK_VERSION_MAJOR 0
#define CUZK_VERSION_MINOR 1
#define CUZK_VERSION_PATCH 0
#define CUZK_VERSION_STRING "0.1.0"

#endif
