// The launch catalogue: studios, films, stars, team and NFTs. Studio names are fictional so no
// real licence is implied; films and stars are those the product is built around.
import type { SaleType, Tier } from "@diginoor/api/catalogue";

export interface SeedStudio {
  slug: string;
  name: string;
  description: string;
}

export const seedStudios: SeedStudio[] = [
  {
    slug: "kaveri-frames",
    name: "Kaveri Frames",
    description: "Chennai studio behind gangster epics and mass entertainers since 1988.",
  },
  {
    slug: "golden-lotus-pictures",
    name: "Golden Lotus Pictures",
    description: "Big-canvas productions with a taste for spectacle and social drama.",
  },
  {
    slug: "chola-screen-works",
    name: "Chola Screen Works",
    description: "Period thrillers, palace mysteries and the restoration of Tamil classics.",
  },
  {
    slug: "vaigai-talkies",
    name: "Vaigai Talkies",
    description: "Comedy, satire and films with a conscience, from Madurai to the world.",
  },
  {
    slug: "marina-light-studios",
    name: "Marina Light Studios",
    description: "Music label and archive of film songs, concerts and studio recordings.",
  },
];

export interface SeedCelebrity {
  slug: string;
  name: string;
  bio: string;
}

export const seedCelebrities: SeedCelebrity[] = [
  {
    slug: "rajinikanth",
    name: "Rajinikanth",
    bio: "The Superstar of Tamil cinema, whose style and screen presence made him an icon across Asia.",
  },
  { slug: "radhika-apte", name: "Radhika Apte", bio: "Actor known for restrained, fearless performances." },
  {
    slug: "shriya-saran",
    name: "Shriya Saran",
    bio: "Lead actor of Sivaji, across Tamil, Telugu and Hindi cinema.",
  },
  {
    slug: "jyothika",
    name: "Jyothika",
    bio: "Her turn as Ganga and Chandramukhi is one of Tamil cinema's great dual roles.",
  },
  {
    slug: "nayanthara",
    name: "Nayanthara",
    bio: "The Lady Superstar, whose career took flight in Chandramukhi.",
  },
  {
    slug: "vivek",
    name: "Vivek",
    bio: "Comedian, social reformer and 'Chinna Kalaivanar', who planted over three million trees.",
  },
  {
    slug: "spb",
    name: "S. P. Balasubrahmanyam",
    bio: "Singer, actor and composer with more than 40,000 songs in sixteen languages; Paadum Nila, the singing moon.",
  },
];

export interface SeedFilm {
  slug: string;
  name: string;
  tagline: string;
  description: string;
  releaseYear: number | null;
  studio: string;
  note: string | null;
  /** Stars in billing order, with their role. */
  cast: { celebrity: string; role: string }[];
  /** Credit line of the poster. */
  credit: string;
}

export const seedFilms: SeedFilm[] = [
  {
    slug: "kabali",
    name: "Kabali",
    tagline: "Kabali da!",
    description:
      "An ageing don walks out of a Malaysian prison after twenty-five years, determined to find the wife he lost and to break the gangs that keep Tamil labourers in chains. Stylish, brooding and defiant, Kabali is Rajinikanth in a suit and silver beard at his most magnetic.",
    releaseYear: 2016,
    studio: "kaveri-frames",
    note: null,
    cast: [
      { celebrity: "rajinikanth", role: "Kabaleeswaran" },
      { celebrity: "radhika-apte", role: "Kumudhavalli" },
    ],
    credit: "Rajinikanth · Radhika Apte",
  },
  {
    slug: "sivaji",
    name: "Sivaji",
    tagline: "The Boss",
    description:
      "A software architect returns from America with a dream of free hospitals and schools, and runs into a wall of corruption and black money. When the system breaks him, he rises again as MGR: Sivaji is a blockbuster of wit, songs and swagger.",
    releaseYear: 2007,
    studio: "golden-lotus-pictures",
    note: null,
    cast: [
      { celebrity: "rajinikanth", role: "Sivaji Arumugam" },
      { celebrity: "shriya-saran", role: "Tamilselvi" },
      { celebrity: "vivek", role: "Arivu" },
    ],
    credit: "Rajinikanth · Shriya Saran · Vivek",
  },
  {
    slug: "chandramukhi",
    name: "Chandramukhi",
    tagline: "Lakalakalaka",
    description:
      "A psychiatrist comes to a haunted palace where the spirit of a dancer named Chandramukhi is said to live in the locked south wing. Comedy, horror and one of Tamil cinema's most famous transformations meet in this record-breaking hit.",
    releaseYear: 2005,
    studio: "chola-screen-works",
    note: null,
    cast: [
      { celebrity: "rajinikanth", role: "Dr. Saravanan" },
      { celebrity: "jyothika", role: "Ganga / Chandramukhi" },
      { celebrity: "nayanthara", role: "Durga" },
    ],
    credit: "Rajinikanth · Jyothika · Nayanthara",
  },
  {
    slug: "pasumainayaganvivek",
    name: "Pasumai Nayagan Vivek",
    tagline: "The green hero",
    description:
      "A tribute to the late actor Vivek, Pasumai Nayagan, the green hero: the comedian who made Tamil Nadu laugh and think, and who set out to plant a crore of trees. His most loved scenes, lines and moments, collected with his family's blessing.",
    releaseYear: null,
    studio: "vaigai-talkies",
    note: "Every holder of a Pasumai Nayagan Vivek NFT receives a sapling to plant, continuing Vivek's mission of a greener Tamil Nadu.",
    cast: [{ celebrity: "vivek", role: "Himself" }],
    credit: "Vivek · Chinna Kalaivanar",
  },
  {
    slug: "nonfungiblespb",
    name: "Non-Fungible SPB",
    tagline: "Paadum Nila",
    description:
      "The voice of a generation. S. P. Balasubrahmanyam sang for half a century, in sixteen languages. This collection holds a one-of-one recording of the last song of the singing moon, together with a few treasured moments from his career.",
    releaseYear: null,
    studio: "marina-light-studios",
    note: "The highest bidder for the one-of-one song NFT unlocks 30 minutes of the song and 51% of its copyright; 10% royalties go to the creators on every resale.",
    cast: [{ celebrity: "spb", role: "Himself" }],
    credit: "S. P. Balasubrahmanyam",
  },
];

export interface SeedCollection {
  slug: string;
  name: string;
  description: string;
  film: string | null;
  featuredOrder: number | null;
  hotOrder: number | null;
  comingSoon: boolean;
}

/** Featured slider: Sivaji, Chandramukhi, Kabali, Vivek; hot grid: Kabali, Sivaji, Chandramukhi, Vivek, Coming soon. */
export const seedCollections: SeedCollection[] = [
  {
    slug: "kabali",
    name: "Kabali",
    description: "Suits, silver beards and the roar of 'Kabali da'.",
    film: "kabali",
    featuredOrder: 3,
    hotOrder: 1,
    comingSoon: false,
  },
  {
    slug: "sivaji",
    name: "Sivaji",
    description: "The Boss, the coin flip and the songs that filled every theatre.",
    film: "sivaji",
    featuredOrder: 1,
    hotOrder: 2,
    comingSoon: false,
  },
  {
    slug: "chandramukhi",
    name: "Chandramukhi",
    description: "The palace, the dancer and the famous 'Lakalakalaka'.",
    film: "chandramukhi",
    featuredOrder: 2,
    hotOrder: 3,
    comingSoon: false,
  },
  {
    slug: "pasumainayaganvivek",
    name: "Pasumai Nayagan Vivek",
    description: "Laughter with a message; every holder plants a sapling.",
    film: "pasumainayaganvivek",
    featuredOrder: 4,
    hotOrder: 4,
    comingSoon: false,
  },
  {
    slug: "nonfungiblespb",
    name: "Non-Fungible SPB",
    description: "The last song of the singing moon, one of one.",
    film: "nonfungiblespb",
    featuredOrder: null,
    hotOrder: null,
    comingSoon: false,
  },
  {
    slug: "coming-soon",
    name: "Coming soon",
    description: "A new collection from a legendary studio is on its way.",
    film: null,
    featuredOrder: null,
    hotOrder: 5,
    comingSoon: true,
  },
];

export const seedTeam: { slug: string; name: string; role: string }[] = [
  { slug: "arjun-raman", name: "Arjun Raman", role: "Co-founder & CEO" },
  { slug: "meera-krishnan", name: "Meera Krishnan", role: "Co-founder & Chief Product Officer" },
  { slug: "karthik-subramanian", name: "Karthik Subramanian", role: "Chief Technology Officer" },
  { slug: "divya-natarajan", name: "Divya Natarajan", role: "Head of Studio Partnerships" },
  { slug: "vikram-sethu", name: "Vikram Sethu", role: "Lead Blockchain Engineer" },
  { slug: "ananya-iyer", name: "Ananya Iyer", role: "Creative Director" },
  { slug: "rahul-menon", name: "Rahul Menon", role: "Head of Community" },
  { slug: "lakshmi-venkatesh", name: "Lakshmi Venkatesh", role: "Legal & Licensing Counsel" },
  { slug: "sanjay-pillai", name: "Sanjay Pillai", role: "Head of Marketing" },
  { slug: "priya-chandrasekar", name: "Priya Chandrasekar", role: "Design Lead" },
];

export interface SeedNft {
  slug: string;
  title: string;
  film: string;
  celebrity: string;
  tier: Tier;
  category: string;
  saleType: SaleType;
  /** USD cents; the reserve for auctions. */
  priceUsdCents: number;
  editionSize: number;
  description: string;
  exclusiveRewards?: string;
  /** Auctions: days the auction runs once started. */
  auctionDays?: number;
  /** Auctions: days from seed time until bidding ends; omitted = not started yet. */
  endsInDays?: number;
}

const usd = (dollars: number) => Math.round(dollars * 100);

export const FEATURED_SONG_SLUG = "spb-paadum-nila-last-song";

export const seedNfts: SeedNft[] = [
  // ── Kabali ────────────────────────────────────────────────────────────────
  {
    slug: "kabali-da",
    title: "Kabali Da!",
    film: "kabali",
    celebrity: "rajinikanth",
    tier: "common",
    category: "Dialogue",
    saleType: "fixed",
    priceUsdCents: usd(12),
    editionSize: 500,
    description:
      "The two words that shook theatres: Kabali announces himself to the gang that thought he was finished.",
  },
  {
    slug: "kabali-prison-gate",
    title: "Out of the Prison Gate",
    film: "kabali",
    celebrity: "rajinikanth",
    tier: "common",
    category: "Still",
    saleType: "fixed",
    priceUsdCents: usd(15),
    editionSize: 400,
    description: "Twenty-five years later, a free man buttons his blazer and steps into the Malaysian sun.",
  },
  {
    slug: "kabali-silver-beard",
    title: "The Silver Beard",
    film: "kabali",
    celebrity: "rajinikanth",
    tier: "common",
    category: "Poster",
    saleType: "fixed",
    priceUsdCents: usd(18),
    editionSize: 300,
    description:
      "The look that launched a thousand imitations: salt-and-pepper beard, dark glasses, calm menace.",
  },
  {
    slug: "kabali-kumudhavalli",
    title: "Kumudhavalli",
    film: "kabali",
    celebrity: "radhika-apte",
    tier: "common",
    category: "Still",
    saleType: "fixed",
    priceUsdCents: usd(15),
    editionSize: 250,
    description: "The wife Kabali never stopped searching for, in a still from their reunion.",
  },
  {
    slug: "kabali-neruppu-da",
    title: "Neruppu Da",
    film: "kabali",
    celebrity: "rajinikanth",
    tier: "rare",
    category: "Song",
    saleType: "fixed",
    priceUsdCents: usd(75),
    editionSize: 100,
    description: "Fire, bass and a rising chorus: a frame from the anthem that opened the film.",
    exclusiveRewards: "A 60-second clip of the Neruppu Da sequence.",
  },
  {
    slug: "kabali-suit-and-chair",
    title: "The Suit and the Chair",
    film: "kabali",
    celebrity: "rajinikanth",
    tier: "rare",
    category: "Poster",
    saleType: "fixed",
    priceUsdCents: usd(90),
    editionSize: 60,
    description: "Legs crossed, at ease in a gang lord's chair that once belonged to his enemy.",
  },
  {
    slug: "kabali-reunion",
    title: "Reunion in Pondicherry",
    film: "kabali",
    celebrity: "radhika-apte",
    tier: "rare",
    category: "Scene",
    saleType: "fixed",
    priceUsdCents: usd(120),
    editionSize: 40,
    description:
      "The quiet, devastating moment when Kumudhavalli and Kabali meet again after a lifetime apart.",
  },
  {
    slug: "kabali-malaysia-dawn",
    title: "Malaysian Dawn",
    film: "kabali",
    celebrity: "rajinikanth",
    tier: "ultimate",
    category: "Scene",
    saleType: "fixed",
    priceUsdCents: usd(450),
    editionSize: 15,
    description: "A wide frame of Kuala Lumpur at first light, the city Kabali means to take back.",
    exclusiveRewards: "Signed digital lobby card and a behind-the-scenes photo set.",
  },
  {
    slug: "kabali-final-shot",
    title: "The Final Shot",
    film: "kabali",
    celebrity: "rajinikanth",
    tier: "ultimate",
    category: "Scene",
    saleType: "fixed",
    priceUsdCents: usd(900),
    editionSize: 8,
    description: "The ending still argued about in every tea shop: a gun, a silence, a cut to black.",
  },
  {
    slug: "kabali-magizhchi",
    title: "Magizhchi",
    film: "kabali",
    celebrity: "rajinikanth",
    tier: "legendary",
    category: "Dialogue",
    saleType: "auction",
    priceUsdCents: usd(8000),
    editionSize: 1,
    auctionDays: 7,
    endsInDays: 5,
    description: "One word, 'happiness', delivered with a smile that says everything. A one-of-one frame.",
    exclusiveRewards:
      "One-of-one original frame with the studio's certificate, and a video message from the crew.",
  },

  // ── Sivaji ────────────────────────────────────────────────────────────────
  {
    slug: "sivaji-the-boss",
    title: "Sivaji The Boss",
    film: "sivaji",
    celebrity: "rajinikanth",
    tier: "common",
    category: "Poster",
    saleType: "fixed",
    priceUsdCents: usd(12),
    editionSize: 500,
    description: "The title card that told the world the Boss had arrived.",
  },
  {
    slug: "sivaji-coin-flip",
    title: "The Coin Flip",
    film: "sivaji",
    celebrity: "rajinikanth",
    tier: "common",
    category: "Still",
    saleType: "fixed",
    priceUsdCents: usd(20),
    editionSize: 350,
    description: "A coin spins in the air; Sivaji catches it without looking. Style, frozen in a frame.",
  },
  {
    slug: "sivaji-tamilselvi",
    title: "Tamilselvi",
    film: "sivaji",
    celebrity: "shriya-saran",
    tier: "common",
    category: "Still",
    saleType: "fixed",
    priceUsdCents: usd(15),
    editionSize: 300,
    description: "Tamilselvi in the market, moments before Sivaji's hopeless courtship begins.",
  },
  {
    slug: "sivaji-arivu",
    title: "Arivu's Advice",
    film: "sivaji",
    celebrity: "vivek",
    tier: "common",
    category: "Dialogue",
    saleType: "fixed",
    priceUsdCents: usd(15),
    editionSize: 250,
    description: "Vivek as Arivu, the uncle whose terrible advice steals every scene he is in.",
  },
  {
    slug: "sivaji-balleilakka",
    title: "Balleilakka",
    film: "sivaji",
    celebrity: "rajinikanth",
    tier: "rare",
    category: "Song",
    saleType: "fixed",
    priceUsdCents: usd(80),
    editionSize: 100,
    description:
      "A frame from the song that toured Tamil Nadu's temples, fields and festivals in five minutes.",
    exclusiveRewards: "A 60-second clip of Balleilakka.",
  },
  {
    slug: "sivaji-mgr",
    title: "Enter MGR",
    film: "sivaji",
    celebrity: "rajinikanth",
    tier: "rare",
    category: "Scene",
    saleType: "fixed",
    priceUsdCents: usd(150),
    editionSize: 50,
    description: "Bald, back from the dead and smiling: Sivaji returns as MGR to finish what he started.",
  },
  {
    slug: "sivaji-style",
    title: "Style",
    film: "sivaji",
    celebrity: "shriya-saran",
    tier: "rare",
    category: "Song",
    saleType: "fixed",
    priceUsdCents: usd(60),
    editionSize: 80,
    description: "The Style song's white-on-white fantasy, with Tamilselvi at its centre.",
  },
  {
    slug: "sivaji-black-money",
    title: "Black Money Vault",
    film: "sivaji",
    celebrity: "rajinikanth",
    tier: "ultimate",
    category: "Scene",
    saleType: "fixed",
    priceUsdCents: usd(600),
    editionSize: 12,
    description: "The vault of black money that Sivaji turns against the men who hid it.",
    exclusiveRewards: "Signed digital lobby card and the scene's storyboard pages.",
  },
  {
    slug: "sivaji-free-hospital",
    title: "A Free Hospital",
    film: "sivaji",
    celebrity: "rajinikanth",
    tier: "ultimate",
    category: "Scene",
    saleType: "auction",
    priceUsdCents: usd(1500),
    editionSize: 5,
    auctionDays: 5,
    description:
      "The dream that started it all: a hospital where no one pays. Auction opens with the first bid.",
  },
  {
    slug: "sivaji-one-rupee",
    title: "One Rupee Coin",
    film: "sivaji",
    celebrity: "rajinikanth",
    tier: "legendary",
    category: "Prop",
    saleType: "auction",
    priceUsdCents: usd(12000),
    editionSize: 1,
    auctionDays: 10,
    endsInDays: 8,
    description:
      "The one-rupee coin that Sivaji flips, restored from the studio's prop archive as a one-of-one.",
    exclusiveRewards: "One-of-one 3D scan of the prop, and a video message from the crew.",
  },

  // ── Chandramukhi ─────────────────────────────────────────────────────────
  {
    slug: "chandramukhi-lakalakalaka",
    title: "Lakalakalaka",
    film: "chandramukhi",
    celebrity: "rajinikanth",
    tier: "common",
    category: "Dialogue",
    saleType: "fixed",
    priceUsdCents: usd(12),
    editionSize: 500,
    description: "Vettaiyan's cry, the sound that still echoes in palace corridors.",
  },
  {
    slug: "chandramukhi-south-wing",
    title: "The South Wing",
    film: "chandramukhi",
    celebrity: "jyothika",
    tier: "common",
    category: "Still",
    saleType: "fixed",
    priceUsdCents: usd(18),
    editionSize: 300,
    description: "A locked door, a flicker of lamplight, and the rumour of a dancer who never left.",
  },
  {
    slug: "chandramukhi-durga",
    title: "Durga",
    film: "chandramukhi",
    celebrity: "nayanthara",
    tier: "common",
    category: "Still",
    saleType: "fixed",
    priceUsdCents: usd(15),
    editionSize: 200,
    description: "Durga by the palace lake, in a frame from Nayanthara's breakout role.",
  },
  {
    slug: "chandramukhi-palace",
    title: "Vijayapuram Palace",
    film: "chandramukhi",
    celebrity: "rajinikanth",
    tier: "common",
    category: "Poster",
    saleType: "fixed",
    priceUsdCents: usd(25),
    editionSize: 150,
    description: "The palace of a hundred rooms, lit for the festival night.",
  },
  {
    slug: "chandramukhi-raa-raa",
    title: "Raa Raa",
    film: "chandramukhi",
    celebrity: "jyothika",
    tier: "rare",
    category: "Song",
    saleType: "fixed",
    priceUsdCents: usd(95),
    editionSize: 75,
    description: "The dance in which Ganga becomes Chandramukhi, eyes blazing.",
    exclusiveRewards: "A 60-second clip of Raa Raa.",
  },
  {
    slug: "chandramukhi-psychiatrist",
    title: "The Psychiatrist",
    film: "chandramukhi",
    celebrity: "rajinikanth",
    tier: "rare",
    category: "Scene",
    saleType: "fixed",
    priceUsdCents: usd(110),
    editionSize: 40,
    description: "Dr. Saravanan pieces the mystery together, calm while the household panics.",
  },
  {
    slug: "chandramukhi-konja-neram",
    title: "Konja Neram",
    film: "chandramukhi",
    celebrity: "nayanthara",
    tier: "rare",
    category: "Song",
    saleType: "fixed",
    priceUsdCents: usd(70),
    editionSize: 90,
    description: "A frame from the gentle duet that gave the film its heart.",
  },
  {
    slug: "chandramukhi-transformation",
    title: "The Transformation",
    film: "chandramukhi",
    celebrity: "jyothika",
    tier: "ultimate",
    category: "Scene",
    saleType: "fixed",
    priceUsdCents: usd(750),
    editionSize: 10,
    description: "The moment the spirit takes hold: one of the most celebrated performances of Tamil cinema.",
    exclusiveRewards: "Signed digital lobby card and the make-up department's notes.",
  },
  {
    slug: "chandramukhi-vettaiyan",
    title: "Vettaiyan Raja",
    film: "chandramukhi",
    celebrity: "rajinikanth",
    tier: "ultimate",
    category: "Scene",
    saleType: "auction",
    priceUsdCents: usd(1200),
    editionSize: 5,
    auctionDays: 5,
    endsInDays: 3,
    description: "The king with the curled moustache, seated on his throne in the flashback.",
  },
  {
    slug: "chandramukhi-anklet",
    title: "Chandramukhi's Anklet",
    film: "chandramukhi",
    celebrity: "jyothika",
    tier: "legendary",
    category: "Prop",
    saleType: "auction",
    priceUsdCents: usd(15000),
    editionSize: 1,
    auctionDays: 14,
    description:
      "The dancer's anklet, whose bells are heard at midnight. A one-of-one; the auction clock starts with the first bid.",
    exclusiveRewards: "One-of-one 3D scan of the prop and a handwritten note from the costume designer.",
  },
  {
    slug: "chandramukhi-poster-original",
    title: "Original Release Poster",
    film: "chandramukhi",
    celebrity: "rajinikanth",
    tier: "legendary",
    category: "Poster",
    saleType: "fixed",
    priceUsdCents: usd(5000),
    editionSize: 1,
    description: "The 2005 release poster, restored from the studio's negative as a one-of-one.",
  },

  // ── Pasumai Nayagan Vivek ─────────────────────────────────────────────────
  {
    slug: "vivek-green-hero",
    title: "Pasumai Nayagan",
    film: "pasumainayaganvivek",
    celebrity: "vivek",
    tier: "common",
    category: "Poster",
    saleType: "fixed",
    priceUsdCents: usd(12),
    editionSize: 500,
    description: "Vivek with a sapling in his hands: the green hero's portrait.",
    exclusiveRewards: "A sapling to plant, delivered to every holder.",
  },
  {
    slug: "vivek-chinna-kalaivanar",
    title: "Chinna Kalaivanar",
    film: "pasumainayaganvivek",
    celebrity: "vivek",
    tier: "common",
    category: "Still",
    saleType: "fixed",
    priceUsdCents: usd(15),
    editionSize: 400,
    description: "The title the people gave him, after the great N. S. Krishnan: laughter that teaches.",
    exclusiveRewards: "A sapling to plant, delivered to every holder.",
  },
  {
    slug: "vivek-one-crore-trees",
    title: "One Crore Trees",
    film: "pasumainayaganvivek",
    celebrity: "vivek",
    tier: "common",
    category: "Moment",
    saleType: "fixed",
    priceUsdCents: usd(20),
    editionSize: 300,
    description: "The pledge to plant ten million trees, and the millions already growing.",
    exclusiveRewards: "A sapling to plant, delivered to every holder.",
  },
  {
    slug: "vivek-comedy-track",
    title: "The Comedy Track",
    film: "pasumainayaganvivek",
    celebrity: "vivek",
    tier: "rare",
    category: "Scene",
    saleType: "fixed",
    priceUsdCents: usd(65),
    editionSize: 100,
    description: "A collage of the comedy tracks that ran parallel to a hundred films, and often stole them.",
    exclusiveRewards: "A sapling to plant and a 60-second clip.",
  },
  {
    slug: "vivek-kalam-pledge",
    title: "The Kalam Pledge",
    film: "pasumainayaganvivek",
    celebrity: "vivek",
    tier: "rare",
    category: "Moment",
    saleType: "fixed",
    priceUsdCents: usd(100),
    editionSize: 50,
    description: "Inspired by Dr. A. P. J. Abdul Kalam, Vivek's promise to green Tamil Nadu.",
    exclusiveRewards: "A sapling to plant and a certificate naming the tree.",
  },
  {
    slug: "vivek-padma-shri",
    title: "Padma Shri",
    film: "pasumainayaganvivek",
    celebrity: "vivek",
    tier: "ultimate",
    category: "Moment",
    saleType: "fixed",
    priceUsdCents: usd(500),
    editionSize: 20,
    description: "The nation's honour for a comedian who used laughter to change minds.",
    exclusiveRewards: "A sapling to plant and a signed commemorative print.",
  },
  {
    slug: "vivek-last-sapling",
    title: "The Last Sapling",
    film: "pasumainayaganvivek",
    celebrity: "vivek",
    tier: "legendary",
    category: "Moment",
    saleType: "auction",
    priceUsdCents: usd(10000),
    editionSize: 1,
    auctionDays: 7,
    endsInDays: 12,
    description: "One-of-one: the last sapling Vivek planted, photographed where it now grows as a tree.",
    exclusiveRewards: "A grove of one hundred saplings planted in the holder's name.",
  },

  // ── Non-Fungible SPB ─────────────────────────────────────────────────────
  {
    slug: FEATURED_SONG_SLUG,
    title: "Paadum Nila: The Last Song",
    film: "nonfungiblespb",
    celebrity: "spb",
    tier: "legendary",
    category: "Song",
    saleType: "auction",
    priceUsdCents: usd(150_000),
    editionSize: 1,
    auctionDays: 30,
    endsInDays: 21,
    description:
      "The last song recorded by S. P. Balasubrahmanyam, offered as a single one-of-one token. The highest bidder unlocks 30 minutes of the song plus 51% of its copyright.",
    exclusiveRewards:
      "30 minutes of the song and 51% of its copyright for the highest bidder; 10% royalties to the creator on every resale.",
  },
  {
    slug: "spb-sixteen-languages",
    title: "Sixteen Languages",
    film: "nonfungiblespb",
    celebrity: "spb",
    tier: "common",
    category: "Poster",
    saleType: "fixed",
    priceUsdCents: usd(20),
    editionSize: 500,
    description: "One voice, sixteen languages and more than forty thousand songs.",
  },
  {
    slug: "spb-studio-session",
    title: "Studio Session, Kodambakkam",
    film: "nonfungiblespb",
    celebrity: "spb",
    tier: "rare",
    category: "Moment",
    saleType: "fixed",
    priceUsdCents: usd(180),
    editionSize: 25,
    description: "At the microphone in a Kodambakkam studio, headphones on, eyes closed.",
  },
  {
    slug: "spb-concert-night",
    title: "Concert Night",
    film: "nonfungiblespb",
    celebrity: "spb",
    tier: "ultimate",
    category: "Moment",
    saleType: "fixed",
    priceUsdCents: usd(1400),
    editionSize: 5,
    description: "The last great concert: fifty thousand people singing along under the stars.",
    exclusiveRewards: "A 3-minute live recording from the concert.",
  },
  {
    slug: "spb-title-song",
    title: "The Superstar's Title Song",
    film: "nonfungiblespb",
    celebrity: "spb",
    tier: "legendary",
    category: "Song",
    saleType: "auction",
    priceUsdCents: usd(20000),
    editionSize: 1,
    auctionDays: 10,
    description:
      "The voice behind Rajinikanth's entrances: SPB's title songs, one-of-one. Bidding opens with the first bid.",
  },

  // ── More Rajinikanth moments across films ────────────────────────────────
  {
    slug: "sivaji-sahana",
    title: "Sahana",
    film: "sivaji",
    celebrity: "shriya-saran",
    tier: "common",
    category: "Song",
    saleType: "fixed",
    priceUsdCents: usd(25),
    editionSize: 150,
    description: "The glass house of Sahana, in a frame of falling rain.",
  },
  {
    slug: "kabali-ulagam-oruvanukka",
    title: "Ulagam Oruvanukka",
    film: "kabali",
    celebrity: "rajinikanth",
    tier: "common",
    category: "Song",
    saleType: "fixed",
    priceUsdCents: usd(20),
    editionSize: 200,
    description: "Is the world for just one man? The question Kabali asks with every step.",
  },
  {
    slug: "chandramukhi-annanoda-paattu",
    title: "Annanoda Paattu",
    film: "chandramukhi",
    celebrity: "rajinikanth",
    tier: "common",
    category: "Song",
    saleType: "fixed",
    priceUsdCents: usd(20),
    editionSize: 100,
    description: "The festival song that opens the palace's celebrations.",
  },
  {
    slug: "sivaji-athiradee",
    title: "Athiradee",
    film: "sivaji",
    celebrity: "rajinikanth",
    tier: "ultimate",
    category: "Song",
    saleType: "fixed",
    priceUsdCents: usd(350),
    editionSize: 20,
    description: "Neon, chrome and a Boss in full flow: a frame from Athiradee.",
  },
  {
    slug: "kabali-gang-war",
    title: "Gang War",
    film: "kabali",
    celebrity: "rajinikanth",
    tier: "legendary",
    category: "Scene",
    saleType: "fixed",
    priceUsdCents: usd(6500),
    editionSize: 1,
    description: "The showdown in the hall of the 43 gang, one-of-one.",
  },
  {
    slug: "vivek-laughter-therapy",
    title: "Laughter Therapy",
    film: "pasumainayaganvivek",
    celebrity: "vivek",
    tier: "legendary",
    category: "Scene",
    saleType: "fixed",
    priceUsdCents: usd(5500),
    editionSize: 1,
    description: "Vivek's most quoted monologue, one-of-one, with the original script page.",
    exclusiveRewards: "A sapling to plant and the original script page as a high-resolution scan.",
  },
];
