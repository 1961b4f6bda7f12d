// NIST SP 800-63B asks verifiers to refuse the passwords attackers try first: values from breach corpuses and commonly
// used ones. Length alone doesn't help ("passwordpassword" is 16 characters), so the dashboard checks this list, taken
// from the top of well-known breach-derived lists, and Till ships it so the check needs no network.

// Space- or newline-separated, lower case.
const LIST = `
123456 password 12345678 qwerty 123456789 12345 1234 111111 1234567 dragon 123123 baseball abc123 football monkey letmein 696969
shadow master 666666 qwertyuiop 123321 mustang 1234567890 michael 654321 pussy superman 1qaz2wsx 7777777 fuckyou 121212 000000
qazwsx 123qwe killer trustno1 jordan jennifer zxcvbnm asdfgh hunter buster soccer harley batman andrew tigger sunshine iloveyou
fuckme 2000 charlie robert thomas hockey ranger daniel starwars klaster 112233 george asshole computer michelle jessica pepper
1111 zxcvbn 555555 11111111 131313 freedom 777777 pass fuck maggie 159753 aaaaaa ginger princess joshua cheese amanda summer love
ashley 6969 nicole chelsea biteme matthew access yankees 987654321 dallas austin thunder taylor matrix william corvette hello
martin heather secret fucker merlin diamond 1234qwer gfhjkm hammer silver 222222 88888888 anthony justin test bailey q1w2e3r4t5
patrick internet scooter orange 11111 golfer cookie richard samantha bigdog guitar jackson whatever mickey chicken sparky snoopy
maverick phoenix camaro sexy peanut morgan welcome falcon cowboy ferrari samsung andrea smokey steelers joseph mercedes dakota
arsenal eagles melissa boomer booboo spider nascar monster tigers yellow xxxxxx 123123123 gateway marina diablo bulldog qwer1234
compaq purple hardcore banana junior hannah 123654 porsche lakers iceman money cowboys 987654 london tennis 999999 ncc1701 coffee
scooby 0000 miller boston q1w2e3r4 fuckoff brandon yamaha chester mother forever johnny edward 333333 oliver redsox player nikita
knight fender barney midnight please brandy chicago badboy iwantu slayer rangers charles angel flower bigdaddy rabbit wizard
bigdick jasper enter rachel chris steven winner adidas victoria natasha 1q2w3e4r jasmine winter prince panties marine ghbdtn
fishing cocacola casper james 232323 raiders 888888 marlboro gandalf asdfasdf crystal 87654321 12344321 sexsex golden blowme
bigtits 8675309 panther lauren angela bitch spanky thx1138 angels madison winston shannon mike toyota blowjob jordan23 canada
sophie apples dick tiger razz 123abc pokemon qazxsw 55555 qwaszx muffin johnson murphy cooper jonathan liverpoo david danielle
159357 jackie 1990 123456a 789456 turtle horny abcd1234 scorpion qazwsxedc 101010 butter carlos password1 dennis slipknot
qwerty123 booger asdf 1991 black startrek 12341234 cameron newyork rainbow nathan john 1992 rocket viking redskins butthead
asdfghjkl 1212 sierra peaches gemini doctor wilson sandra helpme qwertyui victor florida dolphin pookie captain tucker blue
liverpool theman bandit dolphins maddog packers jaguar lovers nicholas united tiffany maxwell zzzzzz nirvana jeremy suckit stupid
porn monica elephant giants jackass hotdog rosebud success debbie mountain 444444 xxxxxxxx warrior 1q2w3e4r5t hammer1 qwe123
sparky1 crazy vanessa tomcat hunter1 lovely chocolate ashley1 bubbles scooter1 trinity hello123 sunshine1 abcdef 1qaz2wsx3edc
password123 hello1 soccer1 master1 121314 baseball1 football1 iloveu princess1 monkey1 charlie1 loveme michael1 welcome1 letmein1
dragon1 shadow1 superman1 jordan1 qwerty1 123qweasd aa123456 abc12345 1234abcd 1qazxsw2 zaq12wsx zaq1xsw2 qweasdzxc qweasd asdasd
asd123 zxc123 q1w2e3 1q2w3e 123asd 12qwaszx qwertyu qwertz qwertz123 azerty azerty123 asdfghjk zxcvbnm1 zxcvbn1 mnbvcxz poiuytrewq
lkjhgfdsa 147258369 147258 741852963 963852741 159951 753951 852456 123654789 258456 456789 456123 789789 147147 321321 654654
123987 102030 112358 314159 271828 010203 0987654321 09876543 9876543210 1234554321 123454321 1234512345 12121212 11223344
1122334455 1234567891 12345678910 1234567899 123456780 0123456789 01234567 00000000 99999999 77777777 66666666 55555555 44444444
33333333 22222222 1111111111 0000000000 qqqqqq wwwwww 111222 112211 123qwe123 aaa111 abc111 abcabc abc123abc asdf1234 1234asdf
qwer4321 passw0rd p@ssw0rd p@ssword pa55word pa55w0rd passwd password12 password2 password01 pass123 pass1234 passpass admin
admin123 administrator root toor guest user test123 testing testtest changeme default secret123 login letmein123 welcome123
iloveyou1 iloveyou2 loveyou lovelove love123 babygirl babygirl1 babyboy lovely1 angel1 jesus jesus1 christ god godisgood blessed
faith grace heaven hallo hello12 hi123 hey123 princesa tequiero teamo amor carolina mariposa estrella daniela gabriela fernanda
alejandro roberto carlos1 miguel diego chocolate1 cupcake candy sweety sweetie sweetheart honey honeybee baby cutie beautiful
pretty kitty kitten hellokitty pinky pink purple1 flower1 butterfly rainbow1 unicorn sunflower lollipop bubblegum bunny puppy
doggy doggie dog cat catcat meow tweety tinkerbell barbie cinderella dolphin1 mermaid angelina annie alexis alexander alex anna
brittany britney courtney chelsea1 christina christine claire crystal1 destiny elizabeth emily emma erica hailey hannah1 jasmine1
jenny jessica1 jessie julia julie karen kate katie kelly kimberly lindsay linda lisa lucy madison1 mary megan melanie molly
monica1 nancy natalie nicole1 olivia paige rachel1 rebecca sabrina samantha1 sarah savannah sophia stephanie susan sydney taylor1
tiffany1 vanessa1 veronica whitney amber amy andrea1 april ashleigh bella brenda brianna brooke caroline cassie catherine chloe
cindy dana diana donna ellie grace1 heather1 holly isabella jackie1 jamie janet jillian kayla kristen laura leslie lily mandy
maria marie melissa1 michelle1 miranda misty morgan1 nadia naomi nina pamela patricia penny rose ruby sandy sara selena shelby
sierra1 stacy tammy tanya tara tina tracy valerie vicky wendy zoe aaron adam adrian albert alberto allen andre andy antonio arthur
austin1 ben benjamin billy blake bobby brad brian bruce bryan carl chad charlie2 chris1 christian christopher cody colin connor
craig curtis dale danny darren dave david1 derek dylan eddie eric ethan frank fred gary gordon greg harry henry ian isaac jack
jacob jake jared jason jeff jeffrey jerry jesse jim jimmy joe joel joey jon jonathan1 jose josh joshua1 juan justin1 kevin kyle
larry lee leo logan louis lucas luke marcus mario mark marshall matt max michael2 mitchell nathan1 neil nick nicholas1 noah oscar
patrick1 paul peter phillip randy ray ricardo rick ricky rob robert1 ronald ronnie ryan sam samuel scott sean sebastian shane
simon spencer stanley stephen steve steven1 stuart ted terry tim timothy todd tom tommy tony travis trevor troy tyler victor1
vincent walter wayne william1 zachary qwerty12 qwerty1234 qwertyuiop1 qwertyqwerty qwerty12345 1qaz2wsx3edc4rfv
1qaz2wsx3edc4rfv5tgb 1qaz2wsx3edc4rfv5tgb6yhn zaq12wsxcde3 zaq1zaq1 !qaz2wsx !qaz@wsx 1qaz!qaz qwe123qwe 123qweasdzxc qweasdzxc123
qazwsxedcrfv qazwsxedcrfvtgb qazwsxedcrfvtgbyhn 1q2w3e4r5t6y 1q2w3e4r5t6y7u 1q2w3e4r5t6y7u8i 1q2w3e4r5t6y7u8i9o
1q2w3e4r5t6y7u8i9o0p q1w2e3r4t5y6 q1w2e3r4t5y6u7 q1w2e3r4t5y6u7i8o9p0 a1b2c3 a1b2c3d4 a1b2c3d4e5 a1b2c3d4e5f6 abc123456 abcd123456
abcdef123 abcdefg abcdefgh abcdefghi abcdefghij abcdefghijk abcdefghijkl abcdefghijklm abcdefghijklmn abcdefghijklmnop
abcdefghijklmnopqrstuvwxyz zyxwvutsrqponmlkjihgfedcba qwertyuiopa qwertyuiopas qwertyuiopasd qwertyuiopasdf qwertyuiopasdfg
qwertyuiopasdfgh qwertyuiopasdfghj qwertyuiopasdfghjk qwertyuiopasdfghjkl qwertyuiopasdfghjklz qwertyuiopasdfghjklzx
qwertyuiopasdfghjklzxc qwertyuiopasdfghjklzxcv qwertyuiopasdfghjklzxcvb qwertyuiopasdfghjklzxcvbn qwertyuiopasdfghjklzxcvbnm
asdfghjklzxcvbnm asdfghjkl123 asdfghjklqwertyuiop zxcvbnmasdfghjkl zxcvbnmasdfghjklqwertyuiop qwertyuiopzxcvbnm
mnbvcxzlkjhgfdsapoiuytrewq poiuytrewqlkjhgfdsamnbvcxz qwertyasdfgh qwertyasdfghzxcvbn qwertasdfgzxcvb qweasdzxcqweasdzxc
asdfasdfasdf asdfasdfasdfasdf qwerqwerqwer qwerasdfzxcv 1234qwerasdfzxcv qwer1234qwer1234 1234qwer1234qwer 1qa2ws3ed4rf
1qa2ws3ed4rf5tg 1qazxsw23edc 1qazxsw23edcvfr4 qazxswedcvfr qazxswedcvfrtgb zxcvbnm123 zxcvbnm123456 zxcvbnmzxcvbnm asdfghjkl1234
qwertyuiop123 qwertyuiop1234 qwertyuiop12345 qwertyuiop123456 123456qwerty 123456qwertyuiop 1234567890qwertyuiop 1234567890qwerty
qwerty123456789 qwerty1234567890 qwertyqwertyqwerty qwertyqwerty123 123456789012 1234567890123 12345678901234 123456789012345
1234567890123456 12345678901 123456789123 123456789123456789 123456123456 123451234512345 12341234123412 1234123412341234
123123123123 123123123123123 111111111111 1111111111111 11111111111111 1111111111111111 000000000000 0000000000000 00000000000000
0000000000000000 222222222222 121212121212 112233445566 11223344556677 1122334455667788 123456654321 12345678987654321
123456787654321 987654321012 098765432109 0987654321098 987654321987654321 147258369147258369 147258369147 741852963741852963
159357159357 147852369 1478963 14789632 147896325 123698745 1236987 12369874 741258963 789654123 963258741 951753 9517538246
789456123 789456123789 456789123 321654987 369258147 142536 142536789 0123456789012 00000000001 1234567890987654321 abcdefghijkl1
aaaaaaaaaaaa aaaaaaaaaaaaaa aaaaaaaaaaaaaaaa zzzzzzzzzzzz xxxxxxxxxxxx qqqqqqqqqqqq passwordpassword passwordpassword1
passwordpassword123 password1234 password12345 password123456 password123456789 password1password password2password passwordpass
passwordqwerty password!password password1! password123! password12! password2020 password2021 password2022 password2023
password2024 password2025 password2019 password2018 password1234567 mypassword mypassword123 mypassword1 yourpassword thepassword
newpassword newpassword1 newpassword123 oldpassword secretpassword supersecret supersecretpassword verysecret topsecret
topsecret123 passwordisgood passwordispassword password1234567890 changemenow changeme123 changemeplease changethis
changethispassword letmeinletmein letmeinnow letmeinplease letmein1234 letmeinpls openupnow opensesame opensesame123
iloveyouiloveyou iloveyousomuch iloveyoubaby iloveyoubabe iloveyouforever iloveyou123 iloveyou1234 iloveyou143 iloveu2 iloveyoumom
iloveyoumum iloveyoudad iloveyoutoo iloveyouall iloveyou4ever iloveme iloveme123 ilovejesus ilovegod ilovemom ilovemymom
ilovemydad ilovemyfamily ilovemykids ilovemyself ilovemywife ilovemyhusband ilovemyboyfriend ilovemygirlfriend ilovemydog
ilovemycat ilovemusic ilovefootball ilovesoccer ilovepizza iloveboys ilovegirls ilovehim iloveher ilovemike ilovejohn ilovechris
ilovedavid ilovejustin ilovemylife iloveyouso ilovejames ilovelucy ilovepink ilovechocolate ilovesex lovelovelove loveyouforever
loveyou123 loveyoutoo loveyou4ever lovemelovemenot foreverandalways foreveryoung foreverlove foreveralone trustno1trustno1
trustnoone trustnobody trustme trustme123 trustno12 iamthebest iamthegreatest iamgod iamking iamcool iamawesome iamsexy iamadmin
iamhere imthebest imcool imgod imsexy youareawesome youarethebest thebest thebest123 thebestofthebest thegreatest
thegreatestofalltime thequickbrownfox thequickbrownfoxjumpsoverthelazydog thequickbrownfoxjumps jumpsoverthelazydog lazydog
bigbrother bigmoney bigboss superstar supermario supermario64 superman123 supermanbatman batmanbatman batmanforever batman123
spiderman spiderman123 spiderman1 ironman ironman123 captainamerica wonderwoman harrypotter harrypotter1 hogwarts dumbledore
voldemort gryffindor slytherin lordoftherings frodobaggins starwars123 starwars1 darthvader lukeskywalker jedimaster
millenniumfalcon maytheforcebewithyou startrek1 enterprise pokemon123 pikachu pikachu123 charizard minecraft minecraft123 fortnite
fortnite123 roblox roblox123 callofduty counterstrike worldofwarcraft leagueoflegends zelda legendofzelda mariobros nintendo
playstation playstation2 playstation3 playstation4 playstation5 xbox360 xboxone gameover gamer123 letsplay helloworld
helloworld123 hellohello hello1234 hellothere hello12345 goodbye goodmorning goodnight goodluck goodlife goodgirl goodboy badgirl
badboy1 whatsup whatever1 whatthefuck nothing nothing123 noname nopassword nopass blahblah blahblahblah yadayada asdfjkl asdfjkl;
jkl;jkl; 1234567a 12345678a 123456789a 123456789q 1234567890q a123456 a12345678 a123456789 q123456 q12345678 q123456789 z123456
qq123456 aa12345678 abc1234567 asd123456 zxc123456 qwe123456 qwe1234567 123456789qwe 123456qwe 123qweasdzxc123 1a2b3c4d
1a2b3c4d5e6f 11qqaazz 1qaz1qaz 2wsx2wsx 1qw23er4 123qwe!@# !@#$%^&* !@#$%^ !@#$%^&*() 1234!@#$ !@#$1234 1q2w3e!q@w#e 12qw!@qw
q1w2e3r4! p@ssw0rd1 p@ssw0rd123 p@55w0rd p4ssw0rd p4ssword passw0rd1 passw0rd123 pa$$word pa$$w0rd password! password@123
password#1 admin1234 admin12345 admin123456 adminadmin administrator1 rootroot root123 toor123 superuser sysadmin webmaster
manager manager123 support service welcome12 welcome1234 welcome2024 welcometomyworld welcomehome welcomeback letmein2 letmein12
access123 access14 accessdenied accessgranted login123 loginlogin logmein signin qwerty7 qwerty69 qwertyu1 qwerty22 qwertyuiop12
zaqxswcde zaqwsx zaq123 zaq1 1z2x3c4v 1z2x3c zxcvzxcv zxcvasdf zxcvbnm,./ zxcasdqwe zxcasd qazqaz wsxwsx edcedc asdzxc zxcqwe
mnbvcxz123 lkjhgfdsa123 poiuytrewq123 0987poiu 9876poiu poiu0987 ytrewq qwert qwert123 qwert12345 trewq asdfg asdfg123 gfdsa zxcvb
zxcvb123 bvcxz yxcvbnm ujmyhn nhyujm 1qazzaq1 monkey123 monkey12 monkeyman monkeybutt dragon123 dragonball dragonballz dragonfly
dragon12 shadow123 master123 mastermaster masterkey masterpassword michael123 jordan23jordan23 michaeljordan lebronjames
kobebryant kobe24 kobe824 mambamentality tombrady tombrady12 peytonmanning derekjeter babyruth baberuth mickeymantle
cristianoronaldo ronaldo7 messi10 leomessi lionelmessi neymarjr zidane manchesterunited manutd manunited manchestercity
liverpoolfc liverpool1 liverpool123 chelseafc chelsea123 arsenalfc arsenal123 tottenham realmadrid barcelona fcbarcelona juventus
acmilan intermilan bayernmunich borussiadortmund newcastleunited evertonfc astonvilla westham leedsunited glasgowceltic celticfc
rangersfc yankees1 yankees2009 newyorkyankees yankeesyankees redsox2004 bostonredsox redsoxnation gosox cubs2016 chicagocubs
cubswin gocubsgo chicagobulls chicagobears bearsdown dallascowboys cowboys1 cowboys123 gocowboys pittsburghsteelers steelers1
steelers7 herewego greenbaypackers packers1 gopackgo newenglandpatriots patriots patriots1 gopats philadelphiaeagles eagles1
flyeaglesfly goeagles newyorkgiants giants1 nygiants nyjets jetsjetsjets denverbroncos broncos broncos1 oaklandraiders raiders1
raidernation sanfrancisco49ers 49ers 49ers1 ninersfaithful seattleseahawks seahawks gohawks kansascitychiefs chiefs chiefs1
minnesotavikings vikings skol washingtonredskins redskins1 hailtoredskins miamidolphins dolphins1 losangeleslakers lakers1
lakers24 lakers08 bostonceltics celtics celtics1 goldenstatewarriors warriors miamiheat heat2012 newyorkknicks knicks
torontomapleleafs mapleleafs goleafsgo montrealcanadiens canadiens detroitredwings redwings pittsburghpenguins penguins
chicagoblackhawks blackhawks bostonbruins bruins dallasstars texasrangers houstonastros astros dodgers losangelesdodgers dodgers1
sfgiants stlouiscardinals cardinals atlantabraves braves newyorkmets mets seattlemariners mariners alabama rolltide rolltide1
rolltidero crimsontide georgiabulldogs godawgs ohiostate buckeyes gobucks michiganwolverines goblue notredame fightingirish
texaslonghorns hookem floridagators gogators lsutigers geauxtigers oregonducks goducks nascar3 dalejr88 dalejr dalejunior
jeffgordon24 jeffgordon earnhardt earnhardt3 harleydavidson harley1 harleyrider ducati kawasaki suzuki honda hondacivic yamaha1
mercedesbenz bmw bmwm3 audi audia4 porsche911 ferrari1 lamborghini bugatti mustang1 mustanggt shelbygt500 corvette1 camaross
chevrolet chevy chevy1 silverado ford fordf150 f150 dodgeram jeep jeepwrangler toyota1 toyotacorolla nissan skyline subaru
volkswagen jetta mitsubishi lancer evolution michael1234567 12qwaszx12qwaszx baseball123 baseball12 football123 football12
soccer123 soccer12 hockey123 hockey1 basketball basketball1 basketball123 volleyball softball tennis123 golf golfer1 golfgolf
swimming running cheer cheerleader dance dancer dancing music music123 musiclover rockandroll rocknroll heavymetal metallica
ironmaiden acdc ledzeppelin pinkfloyd beatles thebeatles rollingstones nirvana1 greenday linkinpark slipknot1 eminem eminem1 tupac
2pac biggie snoopdogg50 50cent justinbieber onedirection taylorswift beyonce rihanna britneyspears michaeljackson elvis
elvispresley bobmarley marley jimihendrix johnlennon kurtcobain hiphop rapper gangsta gangster thug thuglife hustler money123
moneymoney money1 makemoney getmoney cashmoney millionaire billionaire rich richman dollar dollars bitcoin crypto cryptocurrency
ethereum blockchain hodl tothemoon lambo investment business company office work worker employee computer1 computer123 internet1
internet123 windows windows7 windows10 microsoft apple apple123 macintosh iphone iphone6 android samsung1 google google123
facebook facebook1 twitter instagram youtube youtube123 myspace myspace1 hotmail yahoo yahoo123 gmail linkedin skype netflix
amazon ebay paypal paypal123 bank banking online online123 network server database oracle mysql system system123 linux ubuntu
debian unix hacker hacker123 hacking h4x0r l33t leet elite 1337 31337 security security1 firewall cisco cisco123 router modem
wireless wifi wifipassword internetpassword homewifi mywifi happy happy123 happy1 happydays happyday happybirthday happylife smile
smile123 smiley smiles funny funny123 fun laugh lucky lucky7 lucky13 luckyme luckydog lucky123 freedom1 freedom123 liberty america
america1 usa usa123 unitedstates patriot patriot1 texas texas1 california newyork1 newyorkcity chicago1 losangeles boston1 miami
florida1 hawaii alaska canada1 toronto vancouver london1 england england1 scotland ireland wales australia melbourne newzealand
germany france paris paris123 italy rome spain madrid mexico brazil argentina russia moscow china japan tokyo india korea seoul
summer1 summer123 summer2020 summer2021 summer2022 summer2023 summer2024 summer2025 summer69 summertime winter1 winter123
winter2020 winter2023 winter2024 spring spring2024 autumn fall2023 january february march april1 may june july august september
october november december monday tuesday wednesday thursday friday saturday sunday weekend christmas christmas1 merrychristmas
halloween easter thanksgiving newyear newyear2024 valentine birthday birthday1 orange1 yellow1 green green1 blue1 blue123 bluesky
blueberry blackberry strawberry raspberry cherry apple1 banana1 banana123 pineapple watermelon lemon lime mango peach coconut
pumpkin potato tomato carrot pizza pizza123 hamburger cheeseburger bacon chicken1 sausage popcorn icecream cookies cookie1
cookiemonster cupcake1 cake pancake waffle donut doughnut sugar honey1 caramel vanilla cinnamon pepper1 salt coffee1 tea beer
beer123 whiskey vodka tequila wine martini cocacola1 pepsi sprite black1 white whitey red red123 redred silver1 gold golden1
platinum diamond1 diamonds crystal2 ruby1 emerald sapphire pearl jade amber1 tiger1 tigers1 lion lionking lion123 eagle eagle1
falcon1 hawk wolf wolf123 wolfpack wolves bear bears fox foxy foxtrot shark sharks dolphin12 whale snake cobra python viper
scorpion1 spider1 rabbit1 bunny1 horse horses pony stallion bull bulldog1 bulldogs puppy1 puppies kitty1 kittycat pussycat tomcat1
panther1 jaguar1 leopard cheetah elephant1 monkey2 gorilla donkey turkey duck goose penguin1 owl raven phoenix1 dragon2 dragons
unicorn1 griffin angel123 angels1 angelface angeleyes devil devil666 demon satan lucifer hell hellfire 666666666 inferno evil
evilgenius darkness darkside darkangel darkstar darklord blackdragon shadow12 ninja ninja123 samurai warrior1 soldier knight1
kingdom king king123 queen queen123 prince1 princess123 princesa1 lady ladybug lord master12 boss boss123 chief captain1 commander
general major sergeant marine1 army navy airforce military sniper hunter123 killer1 killer123 assassin terminator predator matrix1
neo morpheus zion avatar gladiator spartan spartan117 sparta 300 legend legend1 legendary hero hero123 champion champion1 winner1
victory success1 power power123 powerful strong strength energy thunder1 lightning storm tornado hurricane fire fire123 firefire
flame water water123 ocean ocean1 sea beach beach1 island sunset sunrise sun moon moonlight star star123 stars starlight starfish
galaxy universe planet earth mars jupiter saturn venus mercury pluto cosmos space rocket1 nasa secret1 secret12 secret1234
mysecret hidden private private123 personal password0 password00 password11 password7 password8 password9 password3 password4
password5 password6 password10 password99 password69 password88 password13 password21 password22 password23 password24 password25
password77 password007 pass1 pass12 pass12345 pass123456 pass2024 passpasspass passport passion passion1 passw0rd! pwd pwd123
pw123 mypass mypass123 mypassword12 nopassword1 blank empty null none undefined unknown anonymous user123 user1 username username1
login1 test1 test12 test1234 test12345 testing123 tester demo demo123 sample example temp temp123 temporary guest123 guest1
default1 public public123 share shared 123 000 00000 0000000 1111111 11111111111 2222 22222 2222222 3333 33333 4444 44444 5555
555555555 6666 66666 6666666 7777 77777 777777777 8888 88888 8888888 9999 99999 9999999 999999999 1010 10101010 1212121212 1313
13131313 1414 1515 1616 1717 1818 1919 2020 2021 2022 2023 2024 2025 1980 1981 1982 1983 1984 1985 1986 1987 1988 1989 1993 1994
1995 1996 1997 1998 1999 2001 2002 2003 2004 2005 2006 2007 2008 2009 2010 2011 2012 2013 2014 2015 2016 2017 2018 2019 1969 1970
1975 1977 1978 1979 4321 54321 7654321 43214321 12312312 123412341234 1234512345123 12345123451234 999888 112233445 11223344556
223344 334455 445566 121233 123321123 123321123321 135790 13579 2468 24680 246810 97531 0246813579 1357924680 13572468 36925814
8520 85208520 7410 74107410 963963 9638527410 2580 25802580 0852 5201314 520520 1314520 147369 1472583690 1234567890- 123456789-
1234567890= 1q2w 1q2w3e4 1q2w3e4r5 1qaz 2wsx 3edc 4rfv 5tgb 6yhn 7ujm 8ik, 9ol. 1qaz2wsx3 1qaz2ws 1qaz@wsx 1qaz2wsx! 1qaz2wsx#edc
`

let common: Set<string> | undefined

function commonSet(): Set<string> {
  if (common === undefined) {
    common = new Set(LIST.split(/\s+/).filter((word) => word !== ''))
  }
  return common
}

// A tail of digits, punctuation or symbols, such as "123", "!" or "2024!!".
const TRAILING_DIGITS_AND_SYMBOLS = /[\p{N}\p{P}\p{S}]+$/u

function isOneCharacterRepeated(value: string): boolean {
  const chars = [...value]
  return chars.length > 0 && chars.every((char) => char === chars[0])
}

// One step forward or back through the digits (9 wraps to 0) or the letters, the same step all the way.
function isSequence(value: string): boolean {
  if (value.length < 3) return false
  const digits = /^[0-9]+$/.test(value)
  if (!digits && !/^[a-z]+$/.test(value)) return false
  const size = digits ? 10 : 26
  const step = (i: number) => (value.charCodeAt(i) - value.charCodeAt(i - 1) + size) % size
  const first = step(1)
  if (first !== 1 && first !== size - 1) return false
  for (let i = 2; i < value.length; i++) {
    if (step(i) !== first) return false
  }
  return true
}

function isTrivial(value: string): boolean {
  return isOneCharacterRepeated(value) || isSequence(value)
}

export function isCommonPassword(password: string): boolean {
  const normalized = password.trim().toLowerCase()
  const list = commonSet()
  if (list.has(normalized) || isTrivial(normalized)) return true
  const base = normalized.replace(TRAILING_DIGITS_AND_SYMBOLS, '').trim()
  if (base === normalized || base.length < 3) return false
  return list.has(base) || isTrivial(base)
}

/** For tests: how many passwords the list holds, and how many of them are 12 characters or longer. */
export function commonPasswordStats(): { count: number; longCount: number } {
  const list = commonSet()
  let longCount = 0
  for (const word of list) {
    if ([...word].length >= 12) longCount++
  }
  return { count: list.size, longCount }
}
