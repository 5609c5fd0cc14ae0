/*
 * Font plugin for a web client that must work offline.
 *
 * Evennia's own font plugin (plugins/font.js) adds <link>s to Google Fonts for every font it
 * offers, at start-up; with no internet access those requests fail and only add noise. This
 * one offers the fonts the game serves itself (DejaVu Sans Mono, from Evennia's static files)
 * and the browser's monospace font, with the same options menu and the same saved settings.
 *
 * The line height that follows the font size (so no line is drawn over another on a phone)
 * is the dice package's, for every game's web client: storyteller_dice/dice_panel.css.
 */
let font_plugin = (function () {

    const font_urls = {
        'DejaVu Sans Mono': '/static/webclient/fonts/DejaVuSansMono.css',
        'Monospace': '',
    };

    var getActiveFontFamily = function () {
        var family = localStorage.getItem("evenniaFontFamily");
        return (family && family in font_urls) ? family : "DejaVu Sans Mono";
    }

    var getActiveFontSize = function () {
        return localStorage.getItem("evenniaFontSize") || "0.9";
    }

    var applyFont = function () {
        var family = getActiveFontFamily();
        $(document.body).css("font-family", family === "Monospace" ? "monospace" : "'" + family + "', monospace");
        $(document.body).css("font-size", getActiveFontSize() + "em");
    }

    var onFontFamily = function (evnt) {
        localStorage.setItem("evenniaFontFamily", $(evnt.target).val());
        applyFont();
    }

    var onFontSize = function (evnt) {
        localStorage.setItem("evenniaFontSize", $(evnt.target).val());
        applyFont();
    }

    var onOptionsUI = function (parentdiv) {
        var fontselect = $("<select>");
        var sizeselect = $("<select>");
        for (const font of Object.keys(font_urls)) {
            fontselect.append($("<option>").val(font).text(font));
        }
        for (var x = 4; x < 21; x++) {
            sizeselect.append($("<option>").val(x / 10.0).text(x));
        }
        fontselect.val(getActiveFontFamily());
        sizeselect.val(getActiveFontSize());
        fontselect.on("change", onFontFamily);
        sizeselect.on("change", onFontSize);
        parentdiv.append("<div style='font-weight: bold'>Font Selection:</div>");
        parentdiv.append(fontselect);
        parentdiv.append(sizeselect);
    }

    var init = function () {
        for (const url of Object.values(font_urls)) {
            if (url) {
                $(document.head).append($("<link rel='stylesheet'>").attr("href", url));
            }
        }
        applyFont();
    }

    return {
        init: init,
        onOptionsUI: onOptionsUI,
        applyFont: applyFont,  // read the saved choice again (tests/e2e/test_website_web.py)
    }
})();
window.plugin_handler.add("font", font_plugin);
