/** A drawn map of the office's neighbourhood (no external map service, no tracking). */
export function MapIllustration() {
  return (
    <svg
      viewBox="0 0 480 320"
      role="img"
      aria-label="Map: Diginoor office, Marina Bay, Singapore"
      className="map-art"
    >
      <rect width="480" height="320" fill="#121019" />
      <path d="M0 230 C 90 200, 150 260, 240 240 S 400 180, 480 210 L480 320 L0 320Z" fill="#10233d" />
      <g stroke="#2d2939" strokeWidth="10" fill="none" strokeLinecap="round">
        <path d="M-10 60 L 490 110" />
        <path d="M120 -10 L 170 330" />
        <path d="M330 -10 L 300 330" />
        <path d="M-10 170 L 490 150" />
      </g>
      <g stroke="#201d2a" strokeWidth="4" fill="none">
        <path d="M40 -10 L 60 330" />
        <path d="M240 -10 L 235 330" />
        <path d="M420 -10 L 410 330" />
        <path d="M-10 20 L 490 40" />
      </g>
      <g fill="#1b1924">
        <rect x="180" y="70" width="40" height="60" rx="4" />
        <rect x="250" y="50" width="60" height="40" rx="4" />
        <rect x="60" y="90" width="45" height="55" rx="4" />
        <rect x="350" y="60" width="50" height="70" rx="4" />
      </g>
      <text x="360" y="270" fill="#4f8dff" fontFamily="Inter, sans-serif" fontSize="12" opacity="0.7">
        Marina Bay
      </text>
      <g transform="translate(262 140)">
        <circle r="26" fill="#e9b949" opacity="0.18" />
        <path d="M0 12 C -12 -2, -14 -8, -14 -14 A 14 14 0 0 1 14 -14 C 14 -8, 12 -2, 0 12Z" fill="#e9b949" />
        <circle cy="-14" r="5" fill="#121019" />
      </g>
      <text x="282" y="134" fill="#f3f0f7" fontFamily="Inter, sans-serif" fontSize="13" fontWeight="700">
        Diginoor
      </text>
    </svg>
  );
}
