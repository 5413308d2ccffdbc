// Block codecs: raw LZMA1 (liblzma), raw deflate (libdeflate, zlib where libdeflate does not give
// the block exactly), LZ4 block (liblz4).
// spec: alchemy.md#iga-codecs
#include <libdeflate.h>
#include <lz4.h>
#include <lzma.h>
#include <zlib.h>

#include <fmt/format.h>

#include <cstring>

#include "assay/formats/igarchive/archive.h"
#include "records.h"
#include "codes.h"

namespace assay::igarchive {

struct BlockDecoder::Impl {
  lzma_stream lz = LZMA_STREAM_INIT;
  bool lz_used = false;
  z_stream zs{};
  bool zs_init = false;
  libdeflate_decompressor* ld = nullptr;
  ~Impl() {
    if (lz_used) lzma_end(&lz);
    if (zs_init) inflateEnd(&zs);
    if (ld != nullptr) libdeflate_free_decompressor(ld);
  }
};

BlockDecoder::BlockDecoder() : impl_(std::make_unique<Impl>()) {}
BlockDecoder::~BlockDecoder() = default;
BlockDecoder::BlockDecoder(BlockDecoder&&) noexcept = default;
BlockDecoder& BlockDecoder::operator=(BlockDecoder&&) noexcept = default;

namespace {

Error codec_error(std::uint64_t offset, std::string_view structure, std::string msg) {
  return detail::coded(make_error(kFormatName, structure, offset, std::move(msg)));
}

}  // namespace

// spec: alchemy.md#iga-lzma: 5 property bytes, then raw LZMA1 with no size field and usually no
// end marker. The raw LZMA1 decoder stops when the output is full (LZMA_OK); an end marker right
// after the last byte is consumed by one more call (LZMA_STREAM_END). Success = output full.
Result<std::uint64_t> BlockDecoder::decode(Compression codec, ByteView src,
                                           std::span<std::uint8_t> out, std::uint64_t offset,
                                           std::string_view structure) {
  Impl& d = *impl_;
  switch (codec) {
    case Compression::lzma: {
      if (src.size() < 5) return codec_error(offset, structure, "LZMA block shorter than its 5 property bytes");
      ASSAY_TRY(const records::LzmaProps lp, records::read_lzma_props(src, 0, structure));
      unsigned props = lp.pb;
      const std::uint32_t dict = lp.dict;
      if (props >= 225)
        return codec_error(offset, structure, fmt::format("LZMA property byte 0x{:02x} is not below 225", props));
      if (dict == 0 || dict > (1u << 27))
        return codec_error(offset, structure, fmt::format("LZMA dictionary size 0x{:x} is 0 or above 2^27", dict));
      lzma_options_lzma opt{};
      opt.dict_size = dict < 4096 ? 4096 : dict;
      opt.lc = props % 9;
      props /= 9;
      opt.lp = props % 5;
      opt.pb = props / 5;
      if (opt.lc + opt.lp > 4)
        return codec_error(offset, structure, fmt::format("LZMA lc {} + lp {} above 4", opt.lc, opt.lp));
      lzma_filter filters[2] = {{LZMA_FILTER_LZMA1, &opt}, {LZMA_VLI_UNKNOWN, nullptr}};
      if (lzma_raw_decoder(&d.lz, filters) != LZMA_OK)
        return codec_error(offset, structure, "liblzma refused the LZMA properties");
      d.lz_used = true;
      const std::uint64_t payload = src.size() - 5;
      d.lz.next_in = src.data() + 5;
      d.lz.avail_in = payload;
      d.lz.next_out = out.data();
      d.lz.avail_out = out.size();
      lzma_ret r = LZMA_OK;
      while (d.lz.avail_out > 0) {
        const std::size_t before_in = d.lz.avail_in, before_out = d.lz.avail_out;
        r = lzma_code(&d.lz, LZMA_RUN);
        if (r != LZMA_OK) break;
        if (d.lz.avail_in == before_in && d.lz.avail_out == before_out) break;  // no progress
      }
      if (d.lz.avail_out != 0) {
        if (r == LZMA_OK || r == LZMA_STREAM_END || r == LZMA_BUF_ERROR)
          return codec_error(offset, structure,
                             fmt::format("LZMA data ends after 0x{:x} of 0x{:x} bytes",
                                         out.size() - d.lz.avail_out, out.size()));
        return codec_error(offset, structure, fmt::format("LZMA data error (liblzma code {})", static_cast<int>(r)));
      }
      // An end marker may follow the last byte: let the decoder consume it.
      if (r == LZMA_OK && d.lz.avail_in > 0) r = lzma_code(&d.lz, LZMA_RUN);
      return payload - d.lz.avail_in;
    }
    case Compression::deflate: {
      // spec: alchemy.md#iga-deflate: raw deflate, window bits -15. libdeflate first (about 2x
      // zlib's speed, docs/PERFORMANCE.md "igarchive deflate blocks"); a block it does not give
      // exactly (bad data, a short stream, or more data than the block's size, which zlib stops
      // at the size) goes through zlib, whose results and messages stay the reference.
      if (d.ld == nullptr) d.ld = libdeflate_alloc_decompressor();
      std::size_t in_used = 0, out_used = 0;
      if (d.ld != nullptr &&
          libdeflate_deflate_decompress_ex(d.ld, src.data(), src.size(), out.data(), out.size(), &in_used, &out_used) ==
              LIBDEFLATE_SUCCESS &&
          out_used == out.size())
        return in_used;
      if (!d.zs_init) {
        if (inflateInit2(&d.zs, -15) != Z_OK) return codec_error(offset, structure, "zlib init failed");
        d.zs_init = true;
      } else if (inflateReset(&d.zs) != Z_OK) {
        return codec_error(offset, structure, "zlib reset failed");
      }
      std::uint64_t consumed = 0;
      std::uint64_t out_done = 0;
      int r = Z_OK;
      // zlib counts in uInt; blocks are at most 0x8000 out and the span is bounded by the file,
      // but feed in <= 1 GiB pieces to be exact.
      while (out_done < out.size()) {
        const std::uint64_t in_left = src.size() - consumed;
        d.zs.next_in = const_cast<Bytef*>(src.data() + consumed);
        d.zs.avail_in = static_cast<uInt>(std::min<std::uint64_t>(in_left, 1u << 30));
        d.zs.next_out = out.data() + out_done;
        d.zs.avail_out = static_cast<uInt>(out.size() - out_done);
        const uInt ai = d.zs.avail_in, ao = d.zs.avail_out;
        r = inflate(&d.zs, Z_FINISH);
        consumed += ai - d.zs.avail_in;
        out_done += ao - d.zs.avail_out;
        if (r == Z_STREAM_END || (r != Z_OK && r != Z_BUF_ERROR)) break;
        if (ai == d.zs.avail_in && ao == d.zs.avail_out) break;
      }
      if (r == Z_DATA_ERROR || r == Z_NEED_DICT || r == Z_MEM_ERROR || r == Z_STREAM_ERROR)
        return codec_error(offset, structure,
                           fmt::format("deflate data error: {}", d.zs.msg ? d.zs.msg : "zlib error"));
      if (out_done != out.size())
        return codec_error(offset, structure,
                           fmt::format("deflate data ends after 0x{:x} of 0x{:x} bytes", out_done, out.size()));
      return consumed;
    }
    case Compression::lz4: {
      // spec: alchemy.md#iga-lz4: one LZ4 block; the result must be exactly usize.
      if (src.size() > 0x7FFFFFFF || out.size() > 0x7FFFFFFF)
        return codec_error(offset, structure, "LZ4 block too large");
      const int n = LZ4_decompress_safe(reinterpret_cast<const char*>(src.data()),
                                        reinterpret_cast<char*>(out.data()), static_cast<int>(src.size()),
                                        static_cast<int>(out.size()));
      if (n < 0) return codec_error(offset, structure, "LZ4 data error");
      if (static_cast<std::size_t>(n) != out.size())
        return codec_error(offset, structure,
                           fmt::format("LZ4 block decodes to 0x{:x} bytes, expected 0x{:x}", n, out.size()));
      return src.size();
    }
    case Compression::none:
      return codec_error(offset, structure, "compressed flag set on a file with codec 0 (spec #iga-stored)");
    case Compression::stored:
      break;
  }
  return codec_error(offset, structure, "no codec for this block");
}

}  // namespace assay::igarchive
