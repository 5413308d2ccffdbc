# The end-to-end test of `assay serve` in headless Chromium (issue 13): deep links to an
# igArchive and to a TXD texture, the entry table and a decoded texture preview checked in the
# DOM, a screenshot saved as <build>/serve/serve.png; then a click-through of the page through
# chromedriver (issue 29 item 1), over the real samples too when present. Under CI=true a missing
# chromium or chromedriver fails.
find_program(ASSAY_CHROMIUM NAMES chromium chromium-browser PATHS /usr/bin)
add_test(NAME serve_browser
         COMMAND bash "${CMAKE_CURRENT_LIST_DIR}/browser_test.sh" "$<TARGET_FILE:assay>"
                 "${ASSAY_CHROMIUM}" "${CMAKE_BINARY_DIR}/serve" "${ASSAY_SHARED_SAMPLES}")
set_tests_properties(serve_browser PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77)
