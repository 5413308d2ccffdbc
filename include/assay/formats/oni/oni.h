// The Oni family's public headers in one include: the instance file and layouts, level sets and
// links, layouts for a command, .oni export, pack, TXMP textures, the demo files.
#pragma once

#include "assay/formats/oni/export.h"
#include "assay/formats/oni/instance_file.h"
#include "assay/formats/oni/layout.h"
#include "assay/formats/oni/layouts_for.h"
#include "assay/formats/oni/level_set.h"
#include "assay/formats/oni/names.h"
#include "assay/formats/oni/pack.h"
#include "assay/formats/oni/samples.h"
#include "assay/formats/oni/txmp.h"
#include "assay/formats/oni/writer.h"
