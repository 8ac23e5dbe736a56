// Parts of the profile builder's messages that the matcher and the builder both say (defined in
// profile_match.cpp): a communicator, and the record files of a job, as pieces of a Message.
#pragma once

#include "shardlab/profile/profile_match.h"
#include "shardlab/text/message.h"

#include <vector>

namespace shardlab {

// "communicator 0x1a2b 'dp' (ranks 0-3)" (error.piece.communicator*)
Message commPiece(const MatchedComm& comm);
// The first file, "and the other record files" where there are more (error.piece.record_files)
Message recordFilesPiece(const std::vector<ProfileFile>& files);

} // namespace shardlab
