/* G2 instantiation of the Pippenger MSM (msm_template.h). */
#include "msm/msm.h"

#define PT g2
#include "msm/msm_template.h"
